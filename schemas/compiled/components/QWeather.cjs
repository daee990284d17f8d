// Generated from schemas/components/QWeather.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/QWeather.schema.json","title":"QWeather params","description":"Weather, indices and air quality from QWeather (RAGFlow QWeatherParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content.","type":"object","properties":{"query":{"type":"string","description":"The city or location. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"web_apikey":{"type":"string","description":"QWeather API key. Empty: warning; it must be set before the tool can run."},"lang":{"type":"string","description":"Response language, e.g. \"zh\" (default) or \"en\"."},"type":{"type":"string","description":"weather (default), indices or airquality.","enum":["weather","indices","airquality"]},"user_type":{"type":"string","description":"free (default) or paid subscription.","enum":["free","paid"]},"time_period":{"type":"string","description":"For weather: now (default), 3d, 7d, 10d, 15d or 30d.","enum":["now","3d","7d","10d","15d","30d"]},"error_code":{"type":"object","description":"Messages by QWeather error code."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/QWeather.schema.json" */;
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
if(data.web_apikey !== undefined){
let data1 = data.web_apikey;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/web_apikey",schemaPath:"#/properties/web_apikey/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.web_apikey.type,parentSchema:schema31.properties.web_apikey,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.lang !== undefined){
let data2 = data.lang;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/lang",schemaPath:"#/properties/lang/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.lang.type,parentSchema:schema31.properties.lang,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.type !== undefined){
let data3 = data.type;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.type.type,parentSchema:schema31.properties.type,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!(((data3 === "weather") || (data3 === "indices")) || (data3 === "airquality"))){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/enum",keyword:"enum",params:{allowedValues: schema31.properties.type.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.type.enum,parentSchema:schema31.properties.type,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.user_type !== undefined){
let data4 = data.user_type;
if(typeof data4 !== "string"){
const err5 = {instancePath:instancePath+"/user_type",schemaPath:"#/properties/user_type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.user_type.type,parentSchema:schema31.properties.user_type,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!((data4 === "free") || (data4 === "paid"))){
const err6 = {instancePath:instancePath+"/user_type",schemaPath:"#/properties/user_type/enum",keyword:"enum",params:{allowedValues: schema31.properties.user_type.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.user_type.enum,parentSchema:schema31.properties.user_type,data:data4};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.time_period !== undefined){
let data5 = data.time_period;
if(typeof data5 !== "string"){
const err7 = {instancePath:instancePath+"/time_period",schemaPath:"#/properties/time_period/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.time_period.type,parentSchema:schema31.properties.time_period,data:data5};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!((((((data5 === "now") || (data5 === "3d")) || (data5 === "7d")) || (data5 === "10d")) || (data5 === "15d")) || (data5 === "30d"))){
const err8 = {instancePath:instancePath+"/time_period",schemaPath:"#/properties/time_period/enum",keyword:"enum",params:{allowedValues: schema31.properties.time_period.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.time_period.enum,parentSchema:schema31.properties.time_period,data:data5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.error_code !== undefined){
let data6 = data.error_code;
if(!(data6 && typeof data6 == "object" && !Array.isArray(data6))){
const err9 = {instancePath:instancePath+"/error_code",schemaPath:"#/properties/error_code/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.error_code.type,parentSchema:schema31.properties.error_code,data:data6};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"web_apikey":true,"lang":true,"type":true,"user_type":true,"time_period":true,"error_code":true},"dynamicProps":false,"dynamicItems":false};

