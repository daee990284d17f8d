// Generated from schemas/components/Crawler.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Crawler.schema.json","title":"Crawler params","description":"Crawls a web page (RAGFlow CrawlerParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content.","type":"object","properties":{"query":{"type":"string","description":"The absolute URL of the page. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"proxy":{"type":["string","null"],"description":"HTTP proxy for the crawler."},"extract_type":{"type":"string","description":"What to return: markdown (default), html or content.","enum":["markdown","html","content"]}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Crawler.schema.json" */;
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
if(data.proxy !== undefined){
let data1 = data.proxy;
if((typeof data1 !== "string") && (data1 !== null)){
const err1 = {instancePath:instancePath+"/proxy",schemaPath:"#/properties/proxy/type",keyword:"type",params:{type: schema31.properties.proxy.type},message:"must be string,null",schema:schema31.properties.proxy.type,parentSchema:schema31.properties.proxy,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.extract_type !== undefined){
let data2 = data.extract_type;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/extract_type",schemaPath:"#/properties/extract_type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.extract_type.type,parentSchema:schema31.properties.extract_type,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!(((data2 === "markdown") || (data2 === "html")) || (data2 === "content"))){
const err3 = {instancePath:instancePath+"/extract_type",schemaPath:"#/properties/extract_type/enum",keyword:"enum",params:{allowedValues: schema31.properties.extract_type.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.extract_type.enum,parentSchema:schema31.properties.extract_type,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"proxy":true,"extract_type":true},"dynamicProps":false,"dynamicItems":false};

