// Generated from schemas/components/TitleChunker.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/TitleChunker.schema.json","title":"TitleChunker params","description":"RAGFlow's TitleChunker (legacy HierarchicalMerger): chunks a document by its headings, found with the levels' regular expressions (hierarchy or group).","type":"object","required":["method"],"properties":{"method":{"enum":["hierarchy","group"],"description":"hierarchy: a chunk per heading at the target depth, with the headings above it; group: consecutive lines of one section grouped up to the token cap."},"levels":{"type":"array","minItems":1,"items":{"type":"array","items":{"type":"string","maxLength":256}},"default":[],"description":"Families of Python regexes, each ordered heading level 1..n, matched at the start of each stripped line; the family matching most lines is used."},"hierarchy":{"type":["integer","string","null"],"default":null,"description":"The heading depth to cut at (required for hierarchy; group: 0 or none uses the most common heading level)."},"include_heading_content":{"type":"boolean","default":false,"description":"hierarchy: a heading with a body is its own chunk, under the titles above it (without their bodies)."},"root_chunk_as_heading":{"type":"boolean","default":false,"description":"The first chunk's text heads every other chunk, and is dropped."},"chunk_token_cap":{"anyOf":[{"type":"integer","minimum":128,"maximum":8000},{"enum":[0,null,false]}],"default":512,"description":"Tokens a text chunk may hold, 128..8000; longer chunks are cut at sentence ends. 0 or null: no cap."}}};
const func1 = require("ajv/dist/runtime/ucs2length").default;

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/TitleChunker.schema.json" */;
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
if(data.method === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "method"},message:"must have required property '"+"method"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.method !== undefined){
let data0 = data.method;
if(!((data0 === "hierarchy") || (data0 === "group"))){
const err1 = {instancePath:instancePath+"/method",schemaPath:"#/properties/method/enum",keyword:"enum",params:{allowedValues: schema31.properties.method.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.method.enum,parentSchema:schema31.properties.method,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.levels !== undefined){
let data1 = data.levels;
if(Array.isArray(data1)){
if(data1.length < 1){
const err2 = {instancePath:instancePath+"/levels",schemaPath:"#/properties/levels/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema31.properties.levels,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(Array.isArray(data2)){
const len1 = data2.length;
for(let i1=0; i1<len1; i1++){
let data3 = data2[i1];
if(typeof data3 === "string"){
if(func1(data3) > 256){
const err3 = {instancePath:instancePath+"/levels/" + i0+"/" + i1,schemaPath:"#/properties/levels/items/items/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters",schema:256,parentSchema:schema31.properties.levels.items.items,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/levels/" + i0+"/" + i1,schemaPath:"#/properties/levels/items/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.levels.items.items.type,parentSchema:schema31.properties.levels.items.items,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/levels/" + i0,schemaPath:"#/properties/levels/items/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.levels.items.type,parentSchema:schema31.properties.levels.items,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath:instancePath+"/levels",schemaPath:"#/properties/levels/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.levels.type,parentSchema:schema31.properties.levels,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.hierarchy !== undefined){
let data4 = data.hierarchy;
if(((!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))) && (typeof data4 !== "string")) && (data4 !== null)){
const err7 = {instancePath:instancePath+"/hierarchy",schemaPath:"#/properties/hierarchy/type",keyword:"type",params:{type: schema31.properties.hierarchy.type},message:"must be integer,string,null",schema:schema31.properties.hierarchy.type,parentSchema:schema31.properties.hierarchy,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.include_heading_content !== undefined){
let data5 = data.include_heading_content;
if(typeof data5 !== "boolean"){
const err8 = {instancePath:instancePath+"/include_heading_content",schemaPath:"#/properties/include_heading_content/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.include_heading_content.type,parentSchema:schema31.properties.include_heading_content,data:data5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.root_chunk_as_heading !== undefined){
let data6 = data.root_chunk_as_heading;
if(typeof data6 !== "boolean"){
const err9 = {instancePath:instancePath+"/root_chunk_as_heading",schemaPath:"#/properties/root_chunk_as_heading/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.root_chunk_as_heading.type,parentSchema:schema31.properties.root_chunk_as_heading,data:data6};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.chunk_token_cap !== undefined){
let data7 = data.chunk_token_cap;
const _errs15 = errors;
let valid5 = false;
const _errs16 = errors;
if(!((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7)))){
const err10 = {instancePath:instancePath+"/chunk_token_cap",schemaPath:"#/properties/chunk_token_cap/anyOf/0/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.chunk_token_cap.anyOf[0].type,parentSchema:schema31.properties.chunk_token_cap.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(typeof data7 == "number"){
if(data7 > 8000 || isNaN(data7)){
const err11 = {instancePath:instancePath+"/chunk_token_cap",schemaPath:"#/properties/chunk_token_cap/anyOf/0/maximum",keyword:"maximum",params:{comparison: "<=", limit: 8000},message:"must be <= 8000",schema:8000,parentSchema:schema31.properties.chunk_token_cap.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data7 < 128 || isNaN(data7)){
const err12 = {instancePath:instancePath+"/chunk_token_cap",schemaPath:"#/properties/chunk_token_cap/anyOf/0/minimum",keyword:"minimum",params:{comparison: ">=", limit: 128},message:"must be >= 128",schema:128,parentSchema:schema31.properties.chunk_token_cap.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
var _valid0 = _errs16 === errors;
valid5 = valid5 || _valid0;
const _errs18 = errors;
if(!(((data7 === 0) || (data7 === null)) || (data7 === false))){
const err13 = {instancePath:instancePath+"/chunk_token_cap",schemaPath:"#/properties/chunk_token_cap/anyOf/1/enum",keyword:"enum",params:{allowedValues: schema31.properties.chunk_token_cap.anyOf[1].enum},message:"must be equal to one of the allowed values",schema:schema31.properties.chunk_token_cap.anyOf[1].enum,parentSchema:schema31.properties.chunk_token_cap.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs18 === errors;
valid5 = valid5 || _valid0;
if(!valid5){
const err14 = {instancePath:instancePath+"/chunk_token_cap",schemaPath:"#/properties/chunk_token_cap/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.chunk_token_cap.anyOf,parentSchema:schema31.properties.chunk_token_cap,data:data7};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs15;
if(vErrors !== null){
if(_errs15){
vErrors.length = _errs15;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"method":true,"levels":true,"hierarchy":true,"include_heading_content":true,"root_chunk_as_heading":true,"chunk_token_cap":true},"dynamicProps":false,"dynamicItems":false};

