// Generated from schemas/components/GoogleScholar.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/GoogleScholar.schema.json","title":"GoogleScholar params","description":"Google Scholar search (RAGFlow GoogleScholarParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"Search keywords. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"top_n":{"type":["integer","string"],"description":"Number of results (> 0, default 12)."},"sort_by":{"type":"string","description":"relevance (default) or date.","enum":["relevance","date"]},"year_low":{"type":["integer","string","null"],"description":"Earliest publication year."},"year_high":{"type":["integer","string","null"],"description":"Latest publication year."},"patents":{"type":"boolean","description":"Include patents (default true)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/GoogleScholar.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.query !== undefined){
let data0 = data.query;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.type,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.top_n !== undefined){
let data1 = data.top_n;
if((!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))) && (typeof data1 !== "string")){
const err1 = {instancePath:instancePath+"/top_n",schemaPath:"#/properties/top_n/type",keyword:"type",params:{type: schema31.properties.top_n.type},message:"must be integer,string",schema:schema31.properties.top_n.type,parentSchema:schema31.properties.top_n,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.sort_by !== undefined){
let data2 = data.sort_by;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/sort_by",schemaPath:"#/properties/sort_by/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sort_by.type,parentSchema:schema31.properties.sort_by,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!((data2 === "relevance") || (data2 === "date"))){
const err3 = {instancePath:instancePath+"/sort_by",schemaPath:"#/properties/sort_by/enum",keyword:"enum",params:{allowedValues: schema31.properties.sort_by.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.sort_by.enum,parentSchema:schema31.properties.sort_by,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.year_low !== undefined){
let data3 = data.year_low;
if(((!((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3)))) && (typeof data3 !== "string")) && (data3 !== null)){
const err4 = {instancePath:instancePath+"/year_low",schemaPath:"#/properties/year_low/type",keyword:"type",params:{type: schema31.properties.year_low.type},message:"must be integer,string,null",schema:schema31.properties.year_low.type,parentSchema:schema31.properties.year_low,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.year_high !== undefined){
let data4 = data.year_high;
if(((!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))) && (typeof data4 !== "string")) && (data4 !== null)){
const err5 = {instancePath:instancePath+"/year_high",schemaPath:"#/properties/year_high/type",keyword:"type",params:{type: schema31.properties.year_high.type},message:"must be integer,string,null",schema:schema31.properties.year_high.type,parentSchema:schema31.properties.year_high,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.patents !== undefined){
let data5 = data.patents;
if(typeof data5 !== "boolean"){
const err6 = {instancePath:instancePath+"/patents",schemaPath:"#/properties/patents/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.patents.type,parentSchema:schema31.properties.patents,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"top_n":true,"sort_by":true,"year_low":true,"year_high":true,"patents":true},"dynamicProps":false,"dynamicItems":false};

